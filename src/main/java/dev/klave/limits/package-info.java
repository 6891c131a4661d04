/**
 * Rules that count requests across replicas (spec 1 §8: the per-IP sign-in limit, the CI exchange
 * limit), built on {@link dev.klave.storage.RateWindowStore}.
 */
package dev.klave.limits;
