/**
 * The example alerting apps, each a small class to copy: its event type, its patterns, and how it registers
 * them on a {@link io.cepheus.runtime.CepEngine}. Each app's test drives it deterministically with a
 * {@link io.cepheus.runtime.CepTestHarness} and explicit watermarks; the command-line runner
 * ({@code io.cepheus.examples.cli.Cepheus}) runs them over sample data or your own files.
 */
package io.cepheus.examples.apps;
