package io.cepheus.runtime.internal.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A test agent that logs its lifecycle calls and returns, for the n-th {@code doWork} (0-based), what its script
 * says. Its log is owned by the agent's thread: read it only after the runner or invoker has closed.
 */
final class ScriptedAgent implements Agent {

    final List<String> log = new ArrayList<>();
    private final String roleName;
    private final IntUnaryOperator script;
    private int cycles;

    ScriptedAgent(String roleName, IntUnaryOperator script) {
        this.roleName = roleName;
        this.script = script;
    }

    /** Does one unit of work per cycle, forever. */
    static ScriptedAgent alwaysBusy(String roleName) {
        return new ScriptedAgent(roleName, n -> 1);
    }

    @Override
    public void onStart() {
        log.add("start");
    }

    @Override
    public int doWork() {
        int n = cycles++;
        log.add("work" + n);
        return script.applyAsInt(n);
    }

    @Override
    public void onClose() {
        log.add("close");
    }

    @Override
    public String roleName() {
        return roleName;
    }

    int cycles() {
        return cycles;
    }
}
