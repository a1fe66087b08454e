/**
 * The Cepheus streaming runtime: shard workers over lock-free queues, event time and watermarks, timers,
 * keyed state, and the operators (CEP, windows, joins) that run on them.
 */
module io.cepheus.runtime {
    requires transitive io.cepheus.nfa;
    requires org.jctools.core;
    requires com.carrotsearch.hppc;

    exports io.cepheus.runtime;
    exports io.cepheus.runtime.time;
    exports io.cepheus.runtime.agent;
    exports io.cepheus.runtime.join;
    exports io.cepheus.runtime.window;
}
