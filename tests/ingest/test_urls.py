"""kg/ingest/urls.py: links found in free text, and which of them are code or poster pages."""

from __future__ import annotations

import pytest

from kg.ingest.urls import find_urls, host, is_code_repository, is_poster_page


def test_urls_lose_the_punctuation_that_ends_a_sentence_but_keep_their_own():
    text = (
        "Code: https://github.com/a/b. See (https://example.org/x_(y)) and https://example.org/x_(y), "
        "again https://github.com/a/b; 'https://pages.dev/p'"
    )
    assert find_urls(text) == ["https://github.com/a/b", "https://example.org/x_(y)", "https://pages.dev/p"]


def test_text_without_a_real_url():
    assert find_urls("see http:// or https://x and ftp://host/file") == []


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://github.com/owner/repo", True),
        ("https://www.GitLab.com/group/project", True),
        ("https://user@codeberg.org:443/x/y", True),
        ("https://github.io/owner", False),  # near miss: pages, not a repository host
        ("https://notgithub.com/owner/repo", False),
        ("https://example.org/github.com/owner", False),  # the host is what counts, not the path
    ],
)
def test_code_repositories_by_host(url, expected):
    assert is_code_repository(url) is expected


def test_hosts_and_poster_pages():
    assert host("HTTPS://WWW.Example.ORG:8080/path") == "example.org"
    assert is_poster_page("https://icml.cc/virtual/2026/poster/67185")
    assert not is_poster_page("https://icml.cc/Conferences/2026/poster")  # no /virtual/
    assert not is_poster_page("https://example.com/virtual/2026/poster/1")  # not a conference site
