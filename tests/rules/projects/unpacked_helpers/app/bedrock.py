# select: RES105
import boto3

from app.configs.bedrock import BedrockConfig


class BedrockLLM:
    def __init__(self, config: BedrockConfig):
        self.config = config
        aws_config = self.config.get_aws_config()
        self.client = boto3.client("bedrock-runtime", **aws_config)  # expect: RES105 "`**BedrockConfig.get_aws_config()`"

    def list_models(self):
        return boto3.client("bedrock", **self.config.get_aws_config()).list_foundation_models()  # expect: RES105
