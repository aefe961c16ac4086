"""
The websocket shell: one consumer per socket, broadcasts and the per-process fan-out,
the heartbeat that keeps presence alive, and admission of frames.
"""
