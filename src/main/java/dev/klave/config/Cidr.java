package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.util.Arrays;

/** An address block such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one. */
public final class Cidr {
    private final byte[] network;
    private final int prefixLength;
    private final String text;

    private Cidr(byte[] network, int prefixLength, String text) {
        this.network = network;
        this.prefixLength = prefixLength;
        this.text = text;
    }

    public static Cidr parse(String text) {
        requireNonNull(text, "text is null");
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String addressText = slash < 0 ? trimmed : trimmed.substring(0, slash);
        InetAddress address;
        try {
            // ofLiteral never consults DNS: a host name here is an error, not a lookup.
            address = InetAddress.ofLiteral(addressText);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + trimmed + "' is not an IP address or CIDR block");
        }
        byte[] bytes = address.getAddress();
        int maxPrefix = bytes.length * 8;
        int prefix = maxPrefix;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(trimmed.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + trimmed + "' has no valid prefix length");
            }
            if (prefix < 0 || prefix > maxPrefix) {
                throw new IllegalArgumentException("'" + trimmed + "' has a prefix length outside 0.." + maxPrefix);
            }
        }
        return new Cidr(mask(bytes, prefix), prefix, trimmed);
    }

    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != network.length) {
            return false;
        }
        return Arrays.equals(mask(bytes, prefixLength), network);
    }

    private static byte[] mask(byte[] bytes, int prefix) {
        byte[] masked = bytes.clone();
        for (int bit = prefix; bit < masked.length * 8; bit++) {
            masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return masked;
    }

    @Override
    public String toString() {
        return text;
    }
}
