#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) on loopback that keeps every message it receives
as <n>.eml in a folder, with its envelope recipients in <n>.rcpt: the browser
journey reads back what the product sent.

Usage: smtp-sink.py PORT FOLDER   (prints READY once listening; runs until killed)
"""
import asyncio
import pathlib
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder: pathlib.Path):
        self.folder = folder
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        (self.folder / f"{self.count}.eml").write_bytes(envelope.original_content or envelope.content)
        (self.folder / f"{self.count}.rcpt").write_text("\n".join(envelope.rcpt_tos))
        return "250 OK"


def main() -> None:
    port = int(sys.argv[1])
    folder = pathlib.Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    controller = Controller(Sink(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print("READY", flush=True)
    try:
        asyncio.get_event_loop().run_forever()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
