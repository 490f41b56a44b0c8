"""gradedrel: graded-relevance IR evaluation after Järvelin & Kekäläinen (SIGIR 2000)."""
__version__ = "0.1.0"
