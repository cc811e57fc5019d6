package io.quarkiverse.ratelimit.localredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;

import org.junit.jupiter.api.Test;

class LocalRedisServerTest {

    @Test
    void startsOnAFreePortAndStopsOnClose() {
        LocalRedisServer server = LocalRedisServer.start();
        try {
            assertNotEquals(6379, server.port());
            assertEquals("PONG", server.command("PING"));
            assertEquals("OK", server.command("SET", "k", "v"));
            assertEquals("v", server.command("GET", "k"));
        } finally {
            server.close();
        }
        assertFalse(server.isAlive());
        assertThrows(UncheckedIOException.class, () -> server.command("PING"));
    }

    @Test
    void restartAfterKillComesBackEmptyOnTheSamePort() {
        try (LocalRedisServer server = LocalRedisServer.start()) {
            server.command("SET", "k", "v");
            server.kill();
            assertFalse(server.isAlive());
            server.restart();
            assertEquals(null, server.command("GET", "k"));
        }
    }

    @Test
    void aPausedServerAnswersNothingUntilResumed() {
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection connection = server.connect()) {
            server.pause();
            try {
                assertThrows(UncheckedIOException.class,
                        () -> RespConnection.open(server.host(), server.port(), java.time.Duration.ofMillis(300))
                                .command("PING"));
            } finally {
                server.resume();
            }
            assertEquals("PONG", connection.command("PING"));
        }
    }

    @Test
    void errorRepliesSurfaceAsExceptions() {
        try (LocalRedisServer server = LocalRedisServer.start()) {
            RespConnection.RedisErrorReply error = assertThrows(RespConnection.RedisErrorReply.class,
                    () -> server.command("EVALSHA", "0000000000000000000000000000000000000000", "0"));
            assertTrue(error.getMessage().startsWith("NOSCRIPT"), error.getMessage());
        }
    }

    @Test
    void theEmbeddedBinaryRunsWhereNoRedisIsOnThePath() throws Exception {
        var binary = RedisServerBinary.extractEmbedded();
        assertTrue(Files.isExecutable(binary), binary.toString());
        System.setProperty(RedisServerBinary.OVERRIDE_PROPERTY, binary.toString());
        try (LocalRedisServer server = LocalRedisServer.start()) {
            assertEquals(binary, server.binary());
            assertEquals("PONG", server.command("PING"));
        } finally {
            System.clearProperty(RedisServerBinary.OVERRIDE_PROPERTY);
        }
    }
}
