"""Job state event outputs: reporting/accounting records, their file writer and parser.

- :mod:`qmaster.events.records` — the record types and their line formats;
- :mod:`qmaster.events.writer` — :class:`~qmaster.events.writer.EventFiles`;
- :mod:`qmaster.events.parse` — reading lines back;
- :mod:`qmaster.events.seg` — the SEG protocol mapping shared by ``seg`` and the JSM.
"""
