package io.sluice.cli;

/**
 * {@code --watermark 'COLUMN, DELAY'} (and the pipeline file's {@code watermark}): the arguments of Spark's
 * {@code withWatermark(eventTime, delayThreshold)}, e.g. {@code 'timestamp, 10 seconds'}.
 *
 * @param column the event-time column
 * @param delay  the delay threshold as Spark writes it ({@code 10 seconds}, {@code 1 minute})
 */
record WatermarkSpec(String column, String delay) {
    static final String ACCEPTED = "give the event-time column and the delay separated by a comma, e.g. "
            + "'timestamp, 10 seconds'";

    /** Splits at the first comma; both parts must be non-empty. */
    static WatermarkSpec parse(String text) throws SpecException {
        int comma = text == null ? -1 : text.indexOf(',');
        if (comma < 0) {
            throw new SpecException(ACCEPTED);
        }
        String column = text.substring(0, comma).strip();
        String delay = text.substring(comma + 1).strip();
        if (column.isEmpty() || delay.isEmpty()) {
            throw new SpecException(ACCEPTED);
        }
        return new WatermarkSpec(column, delay);
    }

    @Override
    public String toString() {
        return column + ", " + delay;
    }
}
