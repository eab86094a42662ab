"""`kg query -p` values out of any range a query can use: one line with the allowed range, exit 2."""

from __future__ import annotations

import pytest
from conftest import kg_here

pytestmark = pytest.mark.slow  # each test runs kg on a built store (built_samples: one build per process)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "99999999999999999999999999",
            "99999999999999999999999999 is out of range; give a whole number from 1 to 9223372036854775807",
        ),
        (
            "9223372036854775808",
            "9223372036854775808 is out of range; give a whole number from 1 to 9223372036854775807",
        ),
        (
            "-99999999999999999999",
            "-99999999999999999999 is out of range; give a whole number from 1 to 9223372036854775807",
        ),
    ],
)
def test_an_absurd_limit_is_one_line_with_the_range_and_exit_2(built_samples, value, message):
    result = kg_here(
        "query", "--store", "store", "top-institutions", "-p", f"limit={value}", cwd=built_samples, check=False
    )
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().splitlines() == [f"kg: error: parameter limit: {message}"]


def test_the_largest_limit_is_allowed(built_samples):
    result = kg_here(
        "query",
        "--store",
        "store",
        "top-institutions",
        "-p",
        "limit=9223372036854775807",
        "--format",
        "csv",
        cwd=built_samples,
    )
    assert result.stdout.decode().startswith("institution,")
