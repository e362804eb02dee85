package org.kgabstracts;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilder;
import org.neo4j.harness.Neo4jBuilders;

/**
 * A real Neo4j 5.26 Community server for kg's tests, in its own JVM.
 *
 * <p>It is the Neo4j test harness ({@code Neo4jBuilders.newInProcessBuilder}) with a fixed Bolt
 * address on 127.0.0.1, HTTP and HTTPS off, a capped page cache, and either auth off or auth on with
 * a given password for the {@code neo4j} user. The JVM's heap is capped by the caller ({@code -Xmx}).
 *
 * <p>Usage:
 * <pre>
 *   java -Xmx512m --add-opens=... -cp 'classes:lib/*' org.kgabstracts.KgTestServer \
 *        --dir WORKDIR --port 7687 [--data DATADIR] [--pagecache-mb 64] [--watch-stdin]
 * </pre>
 * The password, if any, is read from the environment variable {@code KG_TEST_NEO4J_PASSWORD}, never
 * from the command line, so it does not show in {@code ps}; Neo4j requires at least 8 characters.
 *
 * <p>Prints exactly one line {@code KG-NEO4J READY bolt://127.0.0.1:PORT} on stdout once Bolt
 * accepts connections, and {@code KG-NEO4J STOPPED} after a clean stop. SIGTERM (or SIGINT) stops it
 * cleanly; with {@code --watch-stdin} it also stops when its stdin reaches end of file, so a test run
 * that dies without cleaning up never leaves an orphaned JVM behind.
 *
 * <p>{@code --data} puts the databases in a directory that survives the server (the harness's own
 * working folder is thrown away), so a test can kill the JVM and start it again on the same data.
 */
public final class KgTestServer {
    private KgTestServer() {}

    public static void main(String[] args) throws Exception {
        Path dir = null;
        Path data = null;
        int port = -1;
        long pagecacheMb = 64;
        boolean watchStdin = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--pagecache-mb" -> pagecacheMb = Long.parseLong(args[++i]);
                case "--watch-stdin" -> watchStdin = true;
                default -> usage("unknown argument: " + args[i]);
            }
        }
        if (dir == null || port <= 0) {
            usage("--dir and --port are required");
        }
        String password = System.getenv("KG_TEST_NEO4J_PASSWORD");
        boolean auth = password != null && !password.isEmpty();

        Files.createDirectories(dir);
        Neo4jBuilder builder = Neo4jBuilders.newInProcessBuilder(dir)
                .withDisabledServer()
                .withConfig(HttpConnector.enabled, false)
                .withConfig(HttpsConnector.enabled, false)
                .withConfig(BoltConnector.enabled, true)
                .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .withConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
                .withConfig(GraphDatabaseSettings.pagecache_memory, pagecacheMb * 1024L * 1024L)
                .withConfig(GraphDatabaseSettings.auth_enabled, auth);
        if (data != null) {
            Files.createDirectories(data);
            builder = builder.withConfig(GraphDatabaseSettings.data_directory, data.toAbsolutePath());
        }

        Neo4j neo4j = builder.build();
        if (auth) {
            try {
                setPassword(neo4j, password);
            } catch (RuntimeException e) {
                // Without this the harness's non-daemon threads would keep a half-started JVM alive.
                System.err.println("KgTestServer: cannot set the test password: " + e.getMessage());
                neo4j.close();
                System.exit(65);
            }
        }

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            neo4j.close();
            System.out.println("KG-NEO4J STOPPED");
            System.out.flush();
            stopped.countDown();
        }, "kg-neo4j-shutdown"));

        if (watchStdin) {
            Thread watcher = new Thread(() -> {
                try (InputStream in = System.in) {
                    while (in.read() != -1) {
                        // Input is ignored; only end of file matters.
                    }
                } catch (IOException ignored) {
                    // A broken pipe means the parent is gone: stop just the same.
                }
                System.exit(0);
            }, "kg-neo4j-stdin-watch");
            watcher.setDaemon(true);
            watcher.start();
        }

        System.out.println("KG-NEO4J READY bolt://127.0.0.1:" + port);
        System.out.flush();
        stopped.await();
    }

    /**
     * Sets the neo4j user's password (no change required at first login). On a restart over kept data
     * the password is already set, and Neo4j refuses to "change" it to the same value: that is fine.
     */
    private static void setPassword(Neo4j neo4j, String password) {
        try {
            neo4j.databaseManagementService().database("system").executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.contains("Old password and new password cannot be the same")) {
                throw e;
            }
        }
    }

    private static void usage(String problem) {
        System.err.println("KgTestServer: " + problem);
        System.err.println("usage: KgTestServer --dir WORKDIR --port PORT [--data DATADIR] [--pagecache-mb N]"
                + " [--watch-stdin]   (password from KG_TEST_NEO4J_PASSWORD; empty = auth off)");
        System.exit(64);
    }
}
