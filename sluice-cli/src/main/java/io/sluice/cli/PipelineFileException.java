package io.sluice.cli;

/** A pipeline file that cannot be used; the message names the file, the line and the problem. */
final class PipelineFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    PipelineFileException(String message) {
        super(message);
    }
}
