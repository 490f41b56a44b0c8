"""Indexing progress: documents pass through unchanged, counted at every step and at the end."""
from gradedrel.core.terrier import with_progress


def test_progress_counts_every_step_and_the_end_without_changing_documents():
    seen = []
    documents = [{"docno": str(i)} for i in range(7)]
    out = list(with_progress(iter(documents), every=3, report=seen.append))
    assert out == documents
    assert seen == [3, 6, 7]


def test_progress_on_an_exact_multiple_reports_once_at_the_end():
    seen = []
    list(with_progress(iter(range(6)), every=3, report=seen.append))
    assert seen == [3, 6]
