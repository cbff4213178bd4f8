# select: RES101
# The demo site's manage.py; standalone/ is another site of the same repository, with its own.
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "demodesk.config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
