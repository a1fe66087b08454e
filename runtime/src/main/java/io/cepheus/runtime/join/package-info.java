/**
 * What users implement and read for Cepheus' joins: the interval join's {@link ProcessJoinFunction}, the
 * temporal join's {@link TemporalJoinFunction}, the handlers results and unmatched elements go to, and the
 * joins' metrics. The joins themselves are entered from {@link io.cepheus.runtime.KeyedStream}.
 */
package io.cepheus.runtime.join;
