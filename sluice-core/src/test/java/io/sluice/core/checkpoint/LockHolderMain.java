package io.sluice.core.checkpoint;

import io.sluice.core.CheckpointLockedException;
import java.nio.file.Path;

/**
 * Run in a separate JVM by {@link CheckpointLockTest}: {@code hold <dir>} opens the checkpoint, prints
 * {@code LOCKED} and keeps it until stdin closes (or the process is killed); {@code try <dir>} opens and closes
 * it once, printing {@code LOCKED} or {@code BUSY <message>}.
 */
public final class LockHolderMain {

    private LockHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "hold" -> {
                Checkpoint cp = Checkpoint.open(dir);
                try {
                    System.out.println("LOCKED");
                    System.out.flush();
                    while (System.in.read() != -1) {
                        // wait for the parent to close stdin or kill us
                    }
                } finally {
                    cp.close();
                }
            }
            case "try" -> {
                try {
                    Checkpoint.open(dir).close();
                    System.out.println("LOCKED");
                } catch (CheckpointLockedException e) {
                    System.out.println("BUSY " + e.getMessage());
                }
                System.out.flush();
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
