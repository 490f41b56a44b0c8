"""Stage "plans" (workflow/rules/plans.smk): each request analysed into facets, concepts and search keys against the thesaurus (analysis, facets, expansion, planner, key_stats), the plan model curators edit (model), plan sets (plan_sets) and topic selection (selection)."""
from gradedrel.plans.model import (Facet, Plan, PlanConcept, PlanKey,  # noqa: F401
                                   dump_plans, merge_curated, parse_plans, plan_to_dict,
                                   read_curated, read_plans, write_plans)
