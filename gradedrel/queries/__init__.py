"""Stage "queries" (workflow/rules/queries.smk): the query types compiled from the plans by registered structures (query_types; the paper's SUM, SSYN-C, WSYN) into query trees (query_tree), written for Terrier (matchop) into query files (query_files), with statistics (query_statistics, syn_statistics).

Structures beyond the paper's live in modules of their own and are registered here, on the
package's import (as ir_measures' ``measures/__init__.py`` registers its measures): a new
structure is its module plus one line below.
"""
from gradedrel.queries import query_types  # noqa: F401  the registry and the paper's three
from gradedrel.queries import weighted_concepts  # noqa: F401  WSYN-C
from gradedrel.queries import boolean_like  # noqa: F401  BAND (an #and of facets)
