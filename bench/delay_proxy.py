#!/usr/bin/env python3
"""A TCP proxy that delays every byte by a fixed time each way: a link to a far region.

    delay_proxy.py <listen port> <target port> <one-way delay ms>

Bytes keep their order on a connection and are never lost, as on TCP; only their arrival is late. Not a test:
bench/region.sh puts it between an application and Redis.
"""
import asyncio
import sys


async def pipe(reader, writer, delay):
    loop = asyncio.get_running_loop()
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            # each chunk leaves `delay` after it arrived; call_later keeps their order
            loop.call_later(delay, writer.write, data)
    finally:
        loop.call_later(delay, writer.close)


async def serve(listen_port, target_port, delay):
    async def handle(client_reader, client_writer):
        redis_reader, redis_writer = await asyncio.open_connection('127.0.0.1', target_port)
        await asyncio.gather(pipe(client_reader, redis_writer, delay), pipe(redis_reader, client_writer, delay))

    server = await asyncio.start_server(handle, '127.0.0.1', listen_port)
    async with server:
        await server.serve_forever()


if __name__ == '__main__':
    asyncio.run(serve(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000))
