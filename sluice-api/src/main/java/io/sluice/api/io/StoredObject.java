package io.sluice.api.io;

import java.util.Objects;

/**
 * What a {@link Storage} knows about one object (a file on the local disk, an object on S3).
 *
 * @param uri          the object's full URI, as {@link Storage} methods take it: {@code s3a://bucket/a/b.json},
 *                     {@code file:///data/a/b.json}; the scheme is the one the caller used ({@code s3} or {@code s3a})
 * @param size         its length in bytes
 * @param lastModified its modification time, milliseconds since the epoch (S3: {@code LastModified})
 * @param versionTag   an opaque tag that changes whenever the content is replaced (S3: the {@code ETag}, quotes kept;
 *                     local: made of the file's identity, size and modification time). Equal tags of one URI mean the
 *                     same content as far as the store can tell; compare them only with {@link String#equals}.
 */
public record StoredObject(String uri, long size, long lastModified, String versionTag) {
    public StoredObject {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(versionTag, "versionTag");
        if (size < 0) {
            throw new IllegalArgumentException("size < 0: " + size);
        }
    }

    /** The last segment of the URI: {@code b.json} for {@code s3a://bucket/a/b.json}. */
    public String name() {
        return Storages.name(uri);
    }
}
