"""Fresh-connection latency as a client that opens a connection per call sees it.

Each probe opens a TCP connection, sends `GET <path>` and waits for the first byte
of the answer; the time is connect -> first byte (what a script, a webhook sender
or a health checker pays per call). Prints "p50_ms p99_ms" over N probes.
Usage: fresh_conn.py host port path n
"""
import socket
import sys
import time

host, port, path, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
times = []
for _ in range(n):
    start = time.perf_counter()
    with socket.create_connection((host, port)) as s:
        s.sendall(request)
        if not s.recv(1):
            sys.exit("the server closed the connection without answering")
        times.append((time.perf_counter() - start) * 1000.0)
        s.shutdown(socket.SHUT_WR)
        while s.recv(65536):
            pass
times.sort()
q = lambda p: times[min(len(times) - 1, int(p * len(times)))]
print(f"{q(0.50):.3f} {q(0.99):.3f}")
