"""Hosts and e-mail domains: the part of a domain its organisation registered, and whether it can
name an institution at all (not a mail service anyone signs up to)."""

from __future__ import annotations

from .lexicon import TEXT_LEXICON


def host(url: str) -> str:
    """The host a URL names, lower case, without its user, port and leading "www.".

    >>> host("https://www.cs.cmu.edu/~foo/index.html"), host("http://user@Mila.quebec:8080/x")
    ('cs.cmu.edu', 'mila.quebec')
    """
    after = url.split("://", 1)[-1]
    return after.split("/", 1)[0].split("@")[-1].split(":")[0].lower().removeprefix("www.")


# Second-level labels under which a country's registry hands out names (ox.ac.uk, tsinghua.edu.cn).
_REGISTRY_LABELS = TEXT_LEXICON.words("registry_label")


# Mail services anyone can sign up to: a domain of theirs says nothing of an institution.
PERSONAL_MAIL = TEXT_LEXICON.words("personal_mail")


def institutional_domain(domain: str | None) -> str | None:
    """The registrable part of an e-mail domain that can name an institution, else None (a mail
    service anyone signs up to, a name without a dot).

    >>> institutional_domain("mails.tsinghua.edu.cn"), institutional_domain("gmail.com")
    ('tsinghua.edu.cn', None)
    """
    if not domain or "." not in domain:
        return None
    registered = registrable_domain(domain)
    return None if registered in PERSONAL_MAIL else registered


def registrable_domain(domain: str) -> str:
    """The part of an e-mail domain its organisation registered, subdomains dropped:
    cs.washington.edu -> washington.edu, mails.tsinghua.edu.cn -> tsinghua.edu.cn, robots.ox.ac.uk -> ox.ac.uk.

    >>> registrable_domain("cs.washington.edu"), registrable_domain("robots.ox.ac.uk")
    ('washington.edu', 'ox.ac.uk')
    """
    labels = domain.casefold().strip(".").split(".")
    kept = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _REGISTRY_LABELS else 2
    return ".".join(labels[-kept:])
