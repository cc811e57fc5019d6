package io.quarkiverse.ratelimit.runtime.redis.model;

import java.math.BigInteger;

/**
 * An exact rational number: the reference models compute with these, so that a difference from a script's reply is
 * the script's rounding, never the model's.
 */
public record Exact(BigInteger numerator, BigInteger denominator) implements Comparable<Exact> {

    public Exact {
        if (denominator.signum() < 0) {
            numerator = numerator.negate();
            denominator = denominator.negate();
        }
        BigInteger gcd = numerator.gcd(denominator);
        if (!gcd.equals(BigInteger.ONE) && gcd.signum() != 0) {
            numerator = numerator.divide(gcd);
            denominator = denominator.divide(gcd);
        }
    }

    public static Exact of(long value) {
        return new Exact(BigInteger.valueOf(value), BigInteger.ONE);
    }

    public static Exact ratio(long numerator, long denominator) {
        return new Exact(BigInteger.valueOf(numerator), BigInteger.valueOf(denominator));
    }

    public Exact plus(Exact other) {
        return new Exact(numerator.multiply(other.denominator).add(other.numerator.multiply(denominator)),
                denominator.multiply(other.denominator));
    }

    public Exact plus(long value) {
        return plus(of(value));
    }

    public Exact minus(Exact other) {
        return plus(other.negate());
    }

    public Exact minus(long value) {
        return minus(of(value));
    }

    public Exact times(Exact other) {
        return new Exact(numerator.multiply(other.numerator), denominator.multiply(other.denominator));
    }

    public Exact times(long value) {
        return times(of(value));
    }

    public Exact dividedBy(Exact other) {
        return new Exact(numerator.multiply(other.denominator), denominator.multiply(other.numerator));
    }

    public Exact dividedBy(long value) {
        return dividedBy(of(value));
    }

    public Exact negate() {
        return new Exact(numerator.negate(), denominator);
    }

    public long floor() {
        BigInteger[] qr = numerator.divideAndRemainder(denominator);
        return qr[1].signum() < 0 ? qr[0].longValueExact() - 1 : qr[0].longValueExact();
    }

    public long ceil() {
        return -negate().floor();
    }

    public int signum() {
        return numerator.signum();
    }

    public static Exact min(Exact a, Exact b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    public static Exact max(Exact a, Exact b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public int compareTo(Exact other) {
        return numerator.multiply(other.denominator).compareTo(other.numerator.multiply(denominator));
    }

    public boolean lessThan(Exact other) {
        return compareTo(other) < 0;
    }

    public boolean greaterThan(Exact other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return denominator.equals(BigInteger.ONE) ? numerator.toString() : numerator + "/" + denominator;
    }
}
