"""kg.collector: the cyclic garbage collector is off within ``collection_paused`` and as it was after."""

import gc

import pytest

from kg.collector import collection_paused


def test_collection_resumes_after_an_error_within():
    assert gc.isenabled()
    with pytest.raises(ValueError), collection_paused():
        assert not gc.isenabled()
        raise ValueError("a failed read")
    assert gc.isenabled()


def test_collection_stays_off_when_it_was_off_before():
    gc.disable()
    try:
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
