/**
 * Why a pattern did or did not match a key: a key's trace ({@link io.cepheus.runtime.explain.Explanation}), turned on
 * and off for one pattern or rule and one key while the engine runs ({@code PatternStream.startTrace},
 * {@code RuleStream.startTrace}), or in a test ({@code CepTestHarness.explain}).
 */
package io.cepheus.runtime.explain;
