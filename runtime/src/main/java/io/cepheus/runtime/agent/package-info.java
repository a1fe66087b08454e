/**
 * How the engine's shard workers wait and fail: the {@link io.cepheus.runtime.agent.IdleStrategy} a worker
 * follows when its inbox is empty (busy spin, yield, back off, park), and the
 * {@link io.cepheus.runtime.agent.ErrorHandler} that decides whether a worker goes on after a failure.
 */
package io.cepheus.runtime.agent;
