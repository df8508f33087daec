from dedup.cli import app  # absolute, so that `spark-submit .../dedup/__main__.py run ...` works too

app(prog_name="dedup")
