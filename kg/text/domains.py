"""Hosts and e-mail domains: the part of a domain its organisation registered, and whether it can
name an institution at all (not a mail service anyone signs up to)."""

from __future__ import annotations


def host(url: str) -> str:
    after = url.split("://", 1)[-1]
    return after.split("/", 1)[0].split("@")[-1].split(":")[0].lower().removeprefix("www.")


# Second-level labels under which a country's registry hands out names (ox.ac.uk, tsinghua.edu.cn).
_REGISTRY_LABELS = frozenset("ac co com edu gov net org ne or go gob mil nic".split())


# Mail services anyone can sign up to: a domain of theirs says nothing of an institution.
PERSONAL_MAIL = frozenset(
    "gmail.com googlemail.com outlook.com hotmail.com live.com msn.com yahoo.com ymail.com icloud.com me.com "
    "aol.com protonmail.com proton.me gmx.de gmx.net web.de mail.ru yandex.ru zoho.com qq.com foxmail.com "
    "163.com 126.com yeah.net sina.com aliyun.com naver.com daum.net hanmail.net".split()
)


def institutional_domain(domain: str | None) -> str | None:
    """The registrable part of an e-mail domain that can name an institution, else None."""
    if not domain or "." not in domain:
        return None
    registered = registrable_domain(domain)
    return None if registered in PERSONAL_MAIL else registered


def registrable_domain(domain: str) -> str:
    """The part of an e-mail domain its organisation registered, subdomains dropped:
    cs.washington.edu -> washington.edu, mails.tsinghua.edu.cn -> tsinghua.edu.cn, robots.ox.ac.uk -> ox.ac.uk."""
    labels = domain.casefold().strip(".").split(".")
    kept = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _REGISTRY_LABELS else 2
    return ".".join(labels[-kept:])
