package io.cepheus.rules.internal.expr;

import java.util.List;
import java.util.Map;

/**
 * Fields of {@code Map<String, ?>} events (what JSON Lines and CSV rows become): a name is a key, a missing key reads
 * as null, {@code card.country} reads the key {@code country} of the map under {@code card}. Types are known only
 * when an event is read.
 */
public final class MapFields implements FieldSource {

    /** The one instance: it holds nothing. */
    public static final MapFields INSTANCE = new MapFields();

    private MapFields() {
    }

    @Override
    public Typed field(List<String> path, int pos) {
        Expr node = new Fields.MapKey(null, path.get(0), pos);
        for (int i = 1; i < path.size(); i++) {
            node = new Fields.MapKey(node, path.get(i), pos);
        }
        return new Typed(node, Type.ANY);
    }

    @Override
    public String describe() {
        return "map events";
    }

    @Override
    public Class<?> eventClass() {
        return Map.class;
    }
}
