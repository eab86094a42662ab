"""The suite's own scheduling (tests/conftest.py): the files sharing a server are one unit of work."""

from __future__ import annotations

from pathlib import Path

from conftest import file_group

TESTS = Path(__file__).parent


def test_the_files_sharing_virtuoso_are_one_group_and_other_files_none():
    sharing = ("test_virtuoso.py", "test_serve_remote.py", "test_failed_build.py")
    assert {name: file_group(TESTS / "stores" / name) for name in sharing} == dict.fromkeys(sharing, "virtuoso")
    assert file_group(TESTS / "stores" / "test_embedded.py") is None
    assert file_group(TESTS / "data" / "countries.txt") is None
