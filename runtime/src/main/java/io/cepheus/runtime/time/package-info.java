/**
 * Event time and processing time: timestamp assigners, watermark strategies and generators, and the clocks
 * the runtime reads processing time from (injected, so tests run on a manual clock).
 */
package io.cepheus.runtime.time;
