package io.sluice.testkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The socket source keeps lines only in memory: the kit reports that it cannot be replayed after a restart. */
class SocketSourceContractTest {
    private ServerSocket server;
    private final List<Socket> clients = new CopyOnWriteArrayList<>();
    private Thread acceptor;

    @BeforeEach
    void startServer() throws IOException {
        server = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"));
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    clients.add(server.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "socket-contract-test-acceptor");
        acceptor.start();
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
        for (Socket s : clients) {
            s.close();
        }
        acceptor.join();
    }

    @Test
    void theKitReportsThatTheSocketSourceIsNotReplayable() {
        SourceContract contract = SourceContract.forFormat("socket").option("host", "127.0.0.1")
                .option("port", server.getLocalPort()).option("numPartitions", 1).awaitDataMillis(10_000)
                .beforeEachTrigger(n -> {
                    await().until(() -> !clients.isEmpty());
                    OutputStream out = clients.get(0).getOutputStream();
                    // One line per trigger: with two, the kit could see the source's offset after the first only.
                    out.write(("line " + n + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                });
        assertThatThrownBy(contract::check).isInstanceOf(ContractViolation.class)
                .hasMessage("rule 'replayable-after-restart' broke on range 0 -> 1: a fresh instance returned 0 rows, "
                        + "the first read 1");
    }
}
