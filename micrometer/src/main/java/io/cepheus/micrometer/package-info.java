/**
 * Monitoring with Micrometer: {@link io.cepheus.micrometer.CepheusMetrics} binds an engine's counters (per shard,
 * pattern, rule version, window and join) to a {@code MeterRegistry}, whose registries publish them to Prometheus,
 * OpenTelemetry and other monitoring systems.
 */
package io.cepheus.micrometer;
