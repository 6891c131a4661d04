# Klave's container image. Build the jar first, then the image from what the build left in target/:
#
#   ./mvnw -DskipTests package          # target/klave.jar and its libraries in target/lib/
#   docker build -t klave:0.1.0 .
#
# The same image without Docker: ./mvnw jib:build -Dimage=<registry>/klave:<tag> (pom.xml).
# Neither is built in CI: these machines reach no container registry, so the base image cannot
# be pulled here (README.md, "Container image").
#
# Pinned to one Temurin release (the JDK the build uses); pin its digest too in your own builds.
FROM eclipse-temurin:25.0.3_9-jre-noble

# The one directory Klave may write to without a volume: with no SERVICE_DATABASE_URL its SQLite
# database and generated encryption key go to data/ under the working directory. Mount a volume
# here to keep them (docker run -v klave-data:/var/lib/klave …). Nothing else is written but the
# JVM's /tmp, so the root filesystem can be read-only (docker run --read-only --tmpfs /tmp).
RUN mkdir -p /var/lib/klave && chown 10001:10001 /var/lib/klave && chmod 0700 /var/lib/klave
WORKDIR /var/lib/klave

# Libraries first, in a layer of their own: they change far less often than Klave itself, so a
# new Klave pushes and pulls only the last, small layer. The jar's manifest names them as lib/….
COPY target/lib/ /app/lib/
COPY target/klave.jar /app/klave.jar

# A user of its own, given as numbers so that Kubernetes can check runAsNonRoot (deploy/base).
USER 10001:10001

# One port: API, web interface, /mcp and the Kubernetes proxy (SERVICE_LISTEN's default).
EXPOSE 8080

# -XX:+ExitOnOutOfMemoryError as ./klave does: a JVM out of memory exits for its supervisor to
# restart (README.md, "Operating"). The heap is half the container's memory limit; the rest is
# Netty's direct buffers, metaspace and threads. Netty's buffers through Unsafe, as ./klave does
# (bench/RESULTS.md, issue 44: +10-18 % maximum). Extra JVM options: JDK_JAVA_OPTIONS.
ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "-XX:MaxRAMPercentage=50", \
    "--sun-misc-unsafe-memory-access=allow", "-Dio.netty.noUnsafe=false", "-jar", "/app/klave.jar"]
CMD ["serve"]

# For Docker alone (Kubernetes uses the probes in deploy/base): ready when GET /readyz answers 200
# on the default port over plain HTTP. Bash's /dev/tcp, since the image has no curl for certain.
# With SERVICE_TLS_CERT or another SERVICE_LISTEN port, override it (docker run --health-cmd …).
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /readyz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q '^HTTP/1.1 200$'"]
