/**
 * Cepheus for Kafka Streams: the engine's patterns as a Kafka Streams processor, partitioned by key across
 * application instances, each key's state in a changelogged state store. The other Cepheus modules do not depend
 * on it.
 */
module io.cepheus.kafka {
    requires transitive io.cepheus.runtime;
    requires transitive io.cepheus.rules;
    requires transitive kafka.streams;
    requires transitive kafka.clients;

    exports io.cepheus.kafka;
}
