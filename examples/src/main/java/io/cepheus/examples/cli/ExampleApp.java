package io.cepheus.examples.cli;

import io.cepheus.pattern.Pattern;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What the runner knows about an example app: its name on the command line, what it does, how its input
 * looks, the patterns {@code --explain} draws, its sample data and how to build its pipeline.
 *
 * @param name          the subcommand, e.g. {@code card-testing}
 * @param title         one line on what it finds
 * @param description   a few lines for {@code --help}
 * @param input         the input event's fields
 * @param time          the input event's time
 * @param alertEvents   schemas of the events alerts carry (the input's, and any intermediate events)
 * @param patterns      the app's patterns by name, for {@code --explain}
 * @param sample        the resource holding the sample input, or null if the app generates its own
 * @param pipeline      builds the engines
 * @param <E>           the input event type
 */
public record ExampleApp<E>(String name, String title, String description, EventSchema<E> input,
        ToLongFunction<E> time, List<EventSchema<?>> alertEvents, Map<String, Pattern<?>> patterns, String sample,
        Pipeline.Factory<E> pipeline) {
}
