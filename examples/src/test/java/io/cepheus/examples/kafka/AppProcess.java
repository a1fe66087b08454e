package io.cepheus.examples.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One instance of {@link FraudStreamsApp} in a JVM of its own, on the test's class path, so that the test can kill
 * it as an operating system kills a process ({@code SIGKILL}: no shutdown hook, no clean close, a transaction left
 * open). Its output goes to a log file.
 */
final class AppProcess {

    private final Process process;

    private AppProcess(Process process) {
        this.process = process;
    }

    /**
     * @param bootstrap the broker
     * @param stateDir  the instance's state directory
     * @param log       where its output goes
     * @param settings  Kafka Streams settings for {@link FraudStreamsApp} (name=value)
     * @return the running instance
     */
    static AppProcess start(String bootstrap, Path stateDir, Path log, List<String> settings) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(FraudStreamsApp.class.getName());
        for (String s : settings) {
            command.add("--config");
            command.add(s);
        }
        command.add("--bootstrap");
        command.add(bootstrap);
        command.add("--state-dir");
        command.add(stateDir.toString());
        try {
            return new AppProcess(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the instance at once, as {@code kill -9} does, and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the instance did not die within 30 s of SIGKILL");
        }
    }

    /** Stops the instance as a service manager does ({@code SIGTERM}: it closes cleanly). */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** @return whether it still runs */
    boolean alive() {
        return process.isAlive();
    }
}
