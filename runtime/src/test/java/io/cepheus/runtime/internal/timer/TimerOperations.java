package io.cepheus.runtime.internal.timer;

/**
 * The timer service operations the property test drives, with the domain as a flag, so that one operation
 * sequence (and one re-entrant handler) runs against both {@link TimerService} and {@link TimerModel}.
 */
interface TimerOperations {

    boolean register(boolean eventTimeDomain, int key, long namespace, long timestamp);

    boolean delete(boolean eventTimeDomain, int key, long namespace, long timestamp);

    int advance(boolean eventTimeDomain, long time, TimerHandler handler);

    long currentTime(boolean eventTimeDomain);

    long nextTime(boolean eventTimeDomain);

    int size(boolean eventTimeDomain);

    int timersOf(int key);

    /** Adapts a real {@link TimerService}. */
    static TimerOperations of(TimerService service) {
        return new TimerOperations() {
            @Override
            public boolean register(boolean eventTimeDomain, int key, long namespace, long timestamp) {
                return eventTimeDomain ? service.registerEventTimeTimer(key, namespace, timestamp)
                        : service.registerProcessingTimeTimer(key, namespace, timestamp);
            }

            @Override
            public boolean delete(boolean eventTimeDomain, int key, long namespace, long timestamp) {
                return eventTimeDomain ? service.deleteEventTimeTimer(key, namespace, timestamp)
                        : service.deleteProcessingTimeTimer(key, namespace, timestamp);
            }

            @Override
            public int advance(boolean eventTimeDomain, long time, TimerHandler handler) {
                return eventTimeDomain ? service.advanceWatermark(time, handler)
                        : service.advanceProcessingTime(time, handler);
            }

            @Override
            public long currentTime(boolean eventTimeDomain) {
                return eventTimeDomain ? service.currentWatermark() : service.currentProcessingTime();
            }

            @Override
            public long nextTime(boolean eventTimeDomain) {
                return eventTimeDomain ? service.nextEventTime() : service.nextProcessingTime();
            }

            @Override
            public int size(boolean eventTimeDomain) {
                return eventTimeDomain ? service.eventTimeTimers() : service.processingTimeTimers();
            }

            @Override
            public int timersOf(int key) {
                return service.timersOf(key);
            }
        };
    }
}
