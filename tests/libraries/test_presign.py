"""What a file does with the boto3 clients it makes (libraries/presign.py): the fixture files
and projects show the findings, these the facts each form leaves."""

from __future__ import annotations

import textwrap
from typing import Dict

import libcst as cst

from resilint.libraries.presign import Uses, signs, uses_of
from resilint.lint.semantic import SemanticModel


def uses(source: str) -> Dict[int, Uses]:
    """The uses of each client the source makes, by the line that makes it."""
    text = textwrap.dedent(source).lstrip("\n")
    module = cst.parse_module(text)
    model = SemanticModel(module, module_name="app.aws", path="app/aws.py", text=text)
    lines = text.splitlines()
    found = {}
    for site, name in model.iter_calls():
        if name in ("boto3.client", "boto3.resource"):
            code = cst.Module([]).code_for_node(site.node)
            line = next(i for i, written in enumerate(lines, 1) if code in written)
            found[line] = uses_of(model, site.node)
    return found


def test_signing_paths():
    assert signs(("generate_presigned_url",)) and signs(("meta", "client", "generate_presigned_post"))
    assert not signs(("put_object",)) and not signs(("meta", "client", "upload_file"))
    assert not signs(("generate_presigned_url", "x")) and not signs(("other", "generate_presigned_url"))


def test_a_local_client_that_only_signs_stays_in_the_file():
    assert uses(
        """
        import boto3

        def link(key):
            s3 = boto3.client("s3")
            return s3.generate_presigned_url("get_object", Params={"Key": key})
        """
    ) == {4: Uses(signs=True)}


def test_what_lets_other_modules_reach_a_client():
    found = uses(
        """
        import boto3
        from app.util import register

        GLOBAL = boto3.client("s3")

        def factory():
            return boto3.client("sqs")

        class Storage:
            def __init__(self):
                self.client = boto3.resource("s3")

        def handed(helper):
            register(boto3.client("sns"))
            helper(boto3.client("sqs", region_name="eu-west-1"))
        """
    )
    assert found == {
        4: Uses(escapes=True), 7: Uses(escapes=True), 11: Uses(escapes=True), 14: Uses(escapes=True),
        15: Uses(other=True),  # a parameter may be any callable
    }


def test_other_calls_through_a_client():
    found = uses(
        """
        import boto3

        def mixed(key):
            s3 = boto3.client("s3")
            s3.put_object(Bucket="b", Key=key)
            return s3.generate_presigned_url("get_object")

        def through_meta():
            r = boto3.resource("s3")
            r.meta.client.upload_file("/tmp/x", "b", "k")

        def given_to_a_builtin():
            s3 = boto3.client("s3", region_name="eu-west-1")
            return getattr(s3, "list_buckets")()
        """
    )
    assert found == {4: Uses(signs=True, other=True), 9: Uses(other=True), 13: Uses(other=True)}
