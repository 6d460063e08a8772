package io.sluice.s3;

import java.util.Locale;

/**
 * An {@code s3://} or {@code s3a://} URI split into scheme, bucket and key. The key is the URI's path after the
 * bucket as written (no percent-decoding), so {@code s3a://b/a b.json} names the key {@code a b.json}.
 */
record S3Uri(String scheme, String bucket, String key) {

    static S3Uri parse(String uri) {
        int sep = uri.indexOf("://");
        if (sep <= 0) {
            throw new IllegalArgumentException("Not an s3:// or s3a:// URI: " + uri);
        }
        String scheme = uri.substring(0, sep).toLowerCase(Locale.ROOT);
        if (!scheme.equals("s3") && !scheme.equals("s3a")) {
            throw new IllegalArgumentException("Not an s3:// or s3a:// URI: " + uri);
        }
        String rest = uri.substring(sep + 3);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("No bucket in " + uri + ": give s3a://BUCKET/path");
        }
        return new S3Uri(scheme, bucket, slash < 0 ? "" : rest.substring(slash + 1));
    }

    /** The URI of another key of the same scheme and bucket. */
    String withKey(String otherKey) {
        return scheme + "://" + bucket + "/" + otherKey;
    }

    @Override
    public String toString() {
        return scheme + "://" + bucket + "/" + key;
    }
}
