"""`make bench`: the platform's speed harness (ingestion, search, time to first token, concurrent
streams, cached answers). `backend/scripts/bench.py` is the command line; each section is a
module here, and `report.py` writes `reports/bench.json`. Nothing here is imported by the
product; unit tests only exercise the pure helpers."""
