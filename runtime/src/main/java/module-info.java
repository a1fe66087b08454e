/**
 * The Cepheus streaming runtime: shard workers over lock-free queues, event time and watermarks, timers,
 * keyed state, and the operators (CEP, windows, joins) that run on them.
 */
module io.cepheus.runtime {
    requires transitive io.cepheus.nfa;
    requires org.jctools.core;
    // JCTools' queues use sun.misc.Unsafe but require jdk.unsupported only statically (optional at run time): an
    // application on the module path would otherwise fail at the first inbox with NoClassDefFoundError
    requires jdk.unsupported;
    requires com.carrotsearch.hppc;

    exports io.cepheus.runtime;
    exports io.cepheus.runtime.time;
    exports io.cepheus.runtime.agent;
    exports io.cepheus.runtime.join;
    exports io.cepheus.runtime.window;
    exports io.cepheus.runtime.rules;
    exports io.cepheus.runtime.explain;
    // the Kafka Streams adapter hosts the engine's pattern operators in its tasks: not an API, so only to it (an
    // automatic module named io.cepheus.kafka by its manifest, since Kafka's own jars carry no module names)
    exports io.cepheus.runtime.internal.hosted to io.cepheus.kafka;
    exports io.cepheus.runtime.internal.cep to io.cepheus.kafka;
    exports io.cepheus.runtime.internal.shard to io.cepheus.kafka;
}
