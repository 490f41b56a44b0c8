"""``gradedrel compare``: your runs beside a finished plan set's query types (or a shipped
reference evaluation), evaluated by the evaluation stage and shown in the report's tables
and figures (docs/compare.md). Above the stages: it finds a plan set's files through the
workflow's :class:`gradedrel.study.Layout`."""
