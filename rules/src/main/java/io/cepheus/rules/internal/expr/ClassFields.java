package io.cepheus.rules.internal.expr;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Fields of events of one class, resolved once per class and name into accessors, never looked up per event. A
 * name is, in this order: a record component, a JavaBean getter ({@code getAmount()}, {@code isOk()}), a public
 * field, or a public no-argument method of that name ({@code amount()} on a class with fluent accessors).
 *
 * <p>Design: an accessor is a lambda that {@link LambdaMetafactory} makes around the getter, the way {@code
 * Payment::amount} compiles, so that a condition reading {@code amount} calls the getter through one interface call,
 * unboxed for primitive fields. The lambda is defined in the event class's own lookup
 * ({@link MethodHandles#privateLookupIn}), so package-private records work on the class path and in any module that
 * opens its package to {@code io.cepheus.rules}; a public class in an exported package needs nothing. A public field
 * has no method to wrap and is read through a method handle. Accessors are cached per class (a {@link ClassValue}:
 * the cache goes with the class) and shared by every rule and thread: they hold no state.
 */
public final class ClassFields implements FieldSource {

    private static final ClassValue<ClassFields> BY_CLASS = new ClassValue<>() {
        @Override
        protected ClassFields computeValue(Class<?> type) {
            return new ClassFields(type);
        }
    };

    private final Class<?> type;
    private final Map<String, Property> properties = new ConcurrentHashMap<>();
    private final Map<String, Object> accessors = new ConcurrentHashMap<>();

    private ClassFields(Class<?> type) {
        this.type = type;
    }

    /**
     * @param type the event class
     * @return its fields
     */
    public static ClassFields of(Class<?> type) {
        if (type.isPrimitive() || type.isArray()) {
            throw new IllegalArgumentException("events of " + type.getTypeName() + " have no fields to read");
        }
        return BY_CLASS.get(type);
    }

    @Override
    public String describe() {
        return "events of class " + type.getSimpleName();
    }

    @Override
    public Class<?> eventClass() {
        return type;
    }

    @Override
    public Typed field(List<String> path, int pos) {
        Property first = property(path.get(0), pos, null);
        if (path.size() == 1) {
            return first.direct(this, pos);
        }
        Expr node = new Fields.OfReference(null, first.boxed(this), pos);
        Class<?> declared = wrap(first.type);
        String readSoFar = path.get(0);
        for (int i = 1; i < path.size(); i++) {
            String name = path.get(i);
            if (Map.class.isAssignableFrom(declared) || declared == Object.class) {
                // a map, or a value whose class is known only when read: its keys, looked up per event
                node = new Fields.MapKey(node, name, pos);
                declared = Object.class;
            } else {
                ClassFields owner = of(declared);
                Property p = owner.property(name, pos, readSoFar);
                node = new Fields.OfReference(node, p.boxed(owner), pos);
                declared = wrap(p.type);
            }
            readSoFar = readSoFar + "." + name;
        }
        return referenceTyped(node, declared);
    }

    /** @return a node of the type a reference of class {@code declared} has */
    private static Typed referenceTyped(Expr node, Class<?> declared) {
        if (declared == String.class) {
            return new Typed(node, Type.STRING);
        }
        if (declared == Character.class || declared.isEnum()) {
            return new Typed(new Fields.AsString(node), Type.STRING);
        }
        if (Number.class.isAssignableFrom(declared)) {
            return new Typed(node, Type.NUMBER);
        }
        if (declared == Boolean.class) {
            return new Typed(node, Type.BOOLEAN);
        }
        return new Typed(node, Type.ANY);
    }

    /**
     * @param name    the field name
     * @param pos     where it is written
     * @param through the path it is read through, for messages; null for a field of the event itself
     */
    private Property property(String name, int pos, String through) {
        Property p = properties.get(name);
        if (p == null) {
            p = resolve(name);
            if (p == null) {
                throw new ExpressionSyntaxException(pos, "unknown field '" + name + "' of " + type.getSimpleName()
                        + (through == null ? "" : " (the type of '" + through + "')") + knownFields());
            }
            properties.put(name, p);
        }
        return p;
    }

    private String knownFields() {
        TreeSet<String> names = new TreeSet<>();
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                names.add(c.getName());
            }
        }
        for (Method m : type.getMethods()) {
            String property = beanProperty(m);
            if (property != null) {
                names.add(property);
            }
        }
        for (Field f : type.getFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                names.add(f.getName());
            }
        }
        return names.isEmpty() ? "; it has no readable fields" : "; its fields: " + String.join(", ", names);
    }

    private static String beanProperty(Method m) {
        if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || m.getReturnType() == void.class
                || m.getDeclaringClass() == Object.class) {
            return null;
        }
        String n = m.getName();
        if (n.startsWith("get") && n.length() > 3) {
            return decapitalize(n.substring(3));
        }
        if (n.startsWith("is") && n.length() > 2 && (m.getReturnType() == boolean.class
                || m.getReturnType() == Boolean.class)) {
            return decapitalize(n.substring(2));
        }
        return null;
    }

    private static String decapitalize(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(1)) && Character.isUpperCase(s.charAt(0))) {
            return s; // "URL" stays "URL", as java.beans.Introspector has it
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static String capitalize(String s) {
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    /** @return the property, or null if the class has none of that name */
    private Property resolve(String name) {
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                if (c.getName().equals(name)) {
                    return new Property(name, c.getType(), c.getAccessor(), null);
                }
            }
        }
        Method getter = publicMethod("get" + capitalize(name));
        if (getter == null) {
            Method is = publicMethod("is" + capitalize(name));
            if (is != null && (is.getReturnType() == boolean.class || is.getReturnType() == Boolean.class)) {
                getter = is;
            }
        }
        if (getter != null && getter.getDeclaringClass() != Object.class) {
            return new Property(name, getter.getReturnType(), getter, null);
        }
        try {
            Field f = type.getField(name);
            if (!Modifier.isStatic(f.getModifiers())) {
                return new Property(name, f.getType(), null, f);
            }
        } catch (NoSuchFieldException e) {
            // not a public field either
        }
        Method fluent = publicMethod(name);
        if (fluent != null && fluent.getDeclaringClass() != Object.class) {
            return new Property(name, fluent.getReturnType(), fluent, null);
        }
        return null;
    }

    private Method publicMethod(String name) {
        try {
            Method m = type.getMethod(name);
            return Modifier.isStatic(m.getModifiers()) || m.getReturnType() == void.class ? null : m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * A readable field: a getter method or a public field.
     *
     * @param name   its name
     * @param type   its declared type
     * @param getter the method that reads it, or null
     * @param field  the public field, or null
     */
    private record Property(String name, Class<?> type, Method getter, Field field) {

        /** @return a node reading this field of the event itself, unboxed if it is a primitive */
        Typed direct(ClassFields owner, int pos) {
            if (type == boolean.class) {
                return new Typed(owner.accessor(this, Predicate.class, "test", boolean.class, pos,
                        (Predicate<Object> g) -> new Fields.OfBool(g, pos),
                        h -> new Fields.Handles.OfBool(h, pos)), Type.BOOL);
            }
            if (type == char.class) {
                return new Typed(owner.accessor(this, ToIntFunction.class, "applyAsInt", int.class, pos,
                        (ToIntFunction<Object> g) -> new Fields.OfChar(g, pos),
                        h -> new Fields.Handles.OfChar(h, pos)), Type.CHAR);
            }
            if (type == long.class || type == int.class || type == short.class || type == byte.class) {
                return new Typed(owner.accessor(this, ToLongFunction.class, "applyAsLong", long.class, pos,
                        (ToLongFunction<Object> g) -> new Fields.OfLong(g, pos),
                        h -> new Fields.Handles.OfLong(h, pos)), Type.LONG);
            }
            if (type == double.class || type == float.class) {
                return new Typed(owner.accessor(this, ToDoubleFunction.class, "applyAsDouble", double.class, pos,
                        (ToDoubleFunction<Object> g) -> new Fields.OfDouble(g, pos),
                        h -> new Fields.Handles.OfDouble(h, pos)), Type.DOUBLE);
            }
            return referenceTyped(new Fields.OfReference(null, boxed(owner), pos), type);
        }

        /** @return a function reading this field boxed (for paths through it, and for aggregates) */
        Function<Object, Object> boxed(ClassFields owner) {
            return owner.boxedAccessor(this);
        }
    }

    private static Class<?> wrap(Class<?> c) {
        return MethodType.methodType(c).wrap().returnType();
    }

    @SuppressWarnings("unchecked")
    private <F> Expr accessor(Property p, Class<?> samType, String samName, Class<?> samReturn, int pos,
            Function<F, Expr> fromLambda, Function<MethodHandle, Expr> fromHandle) {
        String cacheKey = p.name + ":" + samName;
        Object made = accessors.computeIfAbsent(cacheKey, k -> makeAccessor(p, samType, samName, samReturn));
        return made instanceof MethodHandle h ? fromHandle.apply(h) : fromLambda.apply((F) made);
    }

    @SuppressWarnings("unchecked")
    private Function<Object, Object> boxedAccessor(Property p) {
        Object made = accessors.computeIfAbsent(p.name + ":apply",
                k -> makeAccessor(p, Function.class, "apply", Object.class));
        if (made instanceof MethodHandle h) {
            MethodHandle boxing = h;
            return owner -> {
                try {
                    return boxing.invokeExact(owner);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            };
        }
        return (Function<Object, Object>) made;
    }

    /**
     * @return a lambda of {@code samType} calling the getter, or, for a public field (or a class no lambda can be
     *         made in), a method handle of type {@code (Object)samReturn}
     */
    private Object makeAccessor(Property p, Class<?> samType, String samName, Class<?> samReturn) {
        Class<?> valueType = samReturn == Object.class ? wrap(p.type) : samReturn;
        MethodHandles.Lookup lookup = lookupFor(type);
        try {
            MethodHandle direct = p.getter != null ? lookup.unreflect(p.getter) : lookup.unreflectGetter(p.field);
            if (p.getter != null) {
                try {
                    return LambdaMetafactory.metafactory(lookup, samName, MethodType.methodType(samType),
                            MethodType.methodType(samReturn, Object.class), direct,
                            MethodType.methodType(valueType, type)).getTarget().invoke();
                } catch (Throwable noLambda) {
                    // e.g. a lookup without the access a lambda needs: read through the handle instead
                }
            }
            return direct.asType(MethodType.methodType(samReturn, Object.class));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read '" + p.name + "' of " + type.getName() + ": "
                    + e.getMessage() + " (make the class public, or open its package to io.cepheus.rules)", e);
        }
    }

    /** @return the most privileged lookup this module can have on {@code owner} */
    private static MethodHandles.Lookup lookupFor(Class<?> owner) {
        Module self = ClassFields.class.getModule();
        if (!self.canRead(owner.getModule())) {
            self.addReads(owner.getModule());
        }
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
        } catch (IllegalAccessException | SecurityException notOpen) {
            return MethodHandles.lookup(); // a public class of an exported package is still readable from here
        }
    }
}
