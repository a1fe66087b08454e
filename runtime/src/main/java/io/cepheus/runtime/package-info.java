/**
 * The Cepheus streaming runtime: the engine, its operators and their outputs.
 */
package io.cepheus.runtime;
