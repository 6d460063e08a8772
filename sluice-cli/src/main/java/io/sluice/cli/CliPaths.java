package io.sluice.cli;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.io.LocalPaths;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;

/** The local path a command's path flag or argument names ({@link LocalPaths}); another scheme is a usage error. */
final class CliPaths {
    private CliPaths() {
    }

    /** @throws ParameterException (exit 2) naming {@code label} for a value {@link LocalPaths} refuses */
    static Path local(CommandSpec spec, String label, String value) {
        try {
            return LocalPaths.of(label, value);
        } catch (InvalidOptionException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
