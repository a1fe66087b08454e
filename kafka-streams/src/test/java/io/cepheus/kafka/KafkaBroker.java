package io.cepheus.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * One Kafka broker in KRaft mode (broker and controller in one node), run inside the test JVM from Kafka's own
 * server artifacts: its log directory is formatted as {@code kafka-storage.sh format} does, then the server starts
 * on two free local ports. Internal topics have one replica, as a single node needs. Shared with the examples'
 * broker test and the benchmarks through this module's test jar.
 */
public final class KafkaBroker implements AutoCloseable {

    private final KafkaRaftServer server;
    private final String bootstrap;

    private KafkaBroker(KafkaRaftServer server, String bootstrap) {
        this.server = server;
        this.bootstrap = bootstrap;
    }

    /**
     * Starts a broker and waits until it answers.
     *
     * @param dir where it keeps its logs
     * @return the running broker
     */
    public static KafkaBroker start(Path dir) throws Exception {
        int brokerPort = freePort();
        int controllerPort = freePort();
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        p.put("listeners", "PLAINTEXT://localhost:" + brokerPort + ",CONTROLLER://localhost:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.resolve("data").toString());
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        Files.createDirectories(dir);
        Path config = dir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(config)) {
            p.store(w, null);
        }
        int formatted = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c",
            config.toString()}, new PrintStream(OutputStream.nullOutputStream()));
        if (formatted != 0) {
            throw new IllegalStateException("kafka-storage format failed with " + formatted);
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(p, false), Time.SYSTEM);
        server.startup();
        String bootstrap = "localhost:" + brokerPort;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.describeCluster().nodes().get(); // answers once the broker is up
        }
        return new KafkaBroker(server, bootstrap);
    }

    /** @return the broker's {@code bootstrap.servers} */
    public String bootstrap() {
        return bootstrap;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
