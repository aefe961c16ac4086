"""
The solver off the request path: deal verdicts stored, a bounded worker pool, one
solve per question across processes, and staff's analyses in the background.
"""
