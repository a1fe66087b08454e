/**
 * Workers as agents: a {@code doWork()} duty cycle run by an {@code AgentRunner} thread in production and by an
 * {@code AgentInvoker} on the caller's thread in tests, following an idle strategy when there is no work.
 */
package io.cepheus.runtime.internal.agent;
