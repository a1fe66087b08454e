/**
 * Cepheus for Micrometer: binds an engine's counters (shards, patterns, rule versions, windows, joins) to a
 * Micrometer {@code MeterRegistry}. The other Cepheus modules do not depend on it.
 */
module io.cepheus.micrometer {
    requires transitive io.cepheus.runtime;
    requires transitive micrometer.core;

    exports io.cepheus.micrometer;
}
