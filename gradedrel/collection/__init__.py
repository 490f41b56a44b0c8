"""Stage "collection" (workflow/rules/collection.smk): a test collection with graded
judgements — what config says about it (:mod:`.spec`), its documents on their way to the
Terrier index (:mod:`.documents`, :mod:`.postings`), topics and judgements mapped to the
paper's levels by a grade map (:mod:`.judgements`, :mod:`.grades`, :mod:`.readers`) and
the testbed they make (:mod:`.testbed`)."""
from gradedrel.collection.documents import (DOCNO_MAX_LENGTH, DocumentCensus,  # noqa: F401
                                            PositionLimit, checked_documents,
                                            document_count, iter_documents, position_limit)
from gradedrel.collection.judgements import (EXCLUSION_COLUMNS, Assembled, assemble,  # noqa: F401
                                             load_qrels, load_topics, trec_qrels_text)
from gradedrel.collection.spec import (DOCUMENT_KEYS, FETCH_KEYS, JUDGEMENT_KEYS, PARTS,  # noqa: F401
                                       REQUEST_KEYS, CollectionSpec,
                                       local_files, settings, use_ir_datasets_home)
from gradedrel.collection.testbed import (dropped_text_lines, missing_documents,  # noqa: F401
                                          recall_base, testbed_markdown, testbed_summary)
