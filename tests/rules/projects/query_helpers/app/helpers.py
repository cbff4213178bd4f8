import logging

logger = logging.getLogger(__name__)


def log(message):
    logger.info(message)


def flash_error(message):
    logger.warning(message)


def audit(message):
    logger.debug(message)
