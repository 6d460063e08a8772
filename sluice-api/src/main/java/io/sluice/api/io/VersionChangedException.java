package io.sluice.api.io;

import java.io.IOException;

/**
 * A read pinned to a version tag ({@link Storage#open(String, String)}) found the object replaced: its tag is no
 * longer the one the caller saw (S3 answers 412 to {@code If-Match}). The caller recognises it by type; the bytes it
 * read before, if any, belong to the old version and must be dropped.
 */
public final class VersionChangedException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String uri;
    private final String expectedTag;
    private final String actualTag;

    /**
     * @param actualTag the tag now found, or null when the store did not say (S3's 412 carries none)
     */
    public VersionChangedException(String uri, String expectedTag, String actualTag) {
        super(uri + " was modified after it was listed (version " + expectedTag + " expected, "
                + (actualTag == null ? "a different one found" : actualTag + " found")
                + "): an object must not be overwritten in place while it is read");
        this.uri = uri;
        this.expectedTag = expectedTag;
        this.actualTag = actualTag;
    }

    public String uri() {
        return uri;
    }

    public String expectedTag() {
        return expectedTag;
    }

    /** The tag found instead, or null when the store did not say. */
    public String actualTag() {
        return actualTag;
    }
}
