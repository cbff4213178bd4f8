"""Which AWS service errors botocore's retries never end in (libraries/aws_errors.py): a loop
that retries only those around a botocore client does not multiply its retries (RES204)."""

from __future__ import annotations

import textwrap
from typing import List

import pytest

from resilint.libraries.aws_errors import never_retried
from resilint.lint.checker import check_source

MODELLED = "botocore.client.BaseClient.exceptions."


@pytest.mark.parametrize("name, expected", [
    (MODELLED + "ResourceNotFoundException", True),
    (MODELLED + "ConditionalCheckFailedException", True),
    (MODELLED + "NoSuchKey", True),
    ("boto3.resource.meta.client.exceptions.ResourceNotFoundException", True),
    (MODELLED + "404", True),
    # what botocore retries: throttling and transient codes, 5xx, retryable-marked errors
    (MODELLED + "ThrottlingException", False),
    (MODELLED + "ProvisionedThroughputExceededException", False),
    (MODELLED + "LimitExceededException", False),
    (MODELLED + "RequestTimeout", False),
    (MODELLED + "InternalServerError", False),
    (MODELLED + "ServiceUnavailableException", False),
    (MODELLED + "KMSNotFoundException", False),  # Lambda answers it with a 502
    (MODELLED + "503", False),
    # not a modelled error: any code, or a connection error
    (MODELLED + "ClientError", False),
    ("botocore.exceptions.ClientError", False),
    ("botocore.exceptions.EndpointConnectionError", False),
    ("requests.exceptions.HTTPError", False),
])
def test_never_retried(name: str, expected: bool) -> None:
    assert never_retried(name) is expected


def lines(handler: str) -> List[int]:
    source = textwrap.dedent("""
        import time, boto3
        from botocore.exceptions import ClientError
        dynamodb = boto3.client("dynamodb")
        NOT_YET = ("ResourceNotFoundException", "ResourceInUseException")
        def wait(name):
            for _ in range(20):
                try:
                    return dynamodb.describe_table(TableName=name)
        {handler}
            raise TimeoutError(name)
        """).lstrip("\n").format(handler=textwrap.indent(textwrap.dedent(handler).strip("\n"), "        "))
    return [f.line for f in check_source(source, ["RES204"])]


@pytest.mark.parametrize("handler", [
    """
    except ClientError as error:
        if error.response["Error"]["Code"] != "ResourceNotFoundException":
            raise
        time.sleep(0.5)
    """,
    """
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code")
        if code == "ResourceNotFoundException":
            time.sleep(0.5)
            continue
        raise
    """,
    """
    except dynamodb.exceptions.ClientError as error:
        if error.response["Error"]["Code"] not in NOT_YET:
            raise
        time.sleep(0.5)
    """,
    """
    except (dynamodb.exceptions.ResourceNotFoundException, dynamodb.exceptions.ResourceInUseException):
        time.sleep(0.5)
    """,
])
def test_waits_for_a_state_botocore_does_not_retry(handler: str) -> None:
    assert lines(handler) == []


@pytest.mark.parametrize("handler", [
    # no code tested: throttling and 5xx come back as ClientError too
    """
    except ClientError as error:
        print(error.response["Error"]["Code"])
        time.sleep(0.5)
    """,
    # the test is not on the code
    """
    except ClientError as error:
        if name.startswith("tmp"):
            raise
        time.sleep(0.5)
    """,
    # a throttling code among those retried
    """
    except ClientError as error:
        if error.response["Error"]["Code"] not in ("ThrottlingException", "ResourceNotFoundException"):
            raise
        time.sleep(0.5)
    """,
    # any code goes round: the test only logs
    """
    except ClientError as error:
        if error.response["Error"]["Code"] == "ResourceNotFoundException":
            print("not yet")
        time.sleep(0.5)
    """,
    """
    except (dynamodb.exceptions.ResourceNotFoundException, Exception):
        time.sleep(0.5)
    """,
])
def test_overlaps_botocore_retries(handler: str) -> None:
    assert lines(handler) == [8]
