package io.quarkiverse.ratelimit.runtime.redis;

import java.nio.charset.StandardCharsets;

/** The Redis Cluster hash slot of a key: CRC16 (XMODEM) of its hash tag, or of the whole key without one, mod 16384. */
public final class HashSlot {

    public static final int SLOTS = 16384;

    private HashSlot() {
    }

    public static int of(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int from = 0;
        int to = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) { // a tag with something inside it; "{}" hashes the whole key
                from = open + 1;
                to = close;
            }
        }
        return crc16(bytes, from, to) & (SLOTS - 1);
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return crc & 0xffff;
    }
}
